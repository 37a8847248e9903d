fn is_equal_to_sum_even(n: i64) -> bool {
    n % 2 == 0 && n >= 8
}
