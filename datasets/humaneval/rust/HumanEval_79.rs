fn decimal_to_binary(decimal: i64) -> String {
    format!("db{:b}db", decimal)
}
