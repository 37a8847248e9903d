fn below_zero(operations: Vec<i64>) -> bool {
    let mut balance = 0;
    for op in operations {
        balance += op;
        if balance < 0 {
            return true;
        }
    }
    false
}
