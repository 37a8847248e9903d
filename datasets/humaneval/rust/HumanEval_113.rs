fn odd_count(lst: Vec<String>) -> Vec<String> {
    lst.iter()
        .map(|s| {
            let n = s.chars().filter(|c| c.to_digit(10).map_or(false, |d| d % 2 == 1)).count();
            format!("the number of odd elements {}n the str{}ng {} of the {}nput.", n, n, n, n)
        })
        .collect()
}
