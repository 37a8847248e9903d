fn find_closest_elements(numbers: Vec<f64>) -> (f64, f64) {
    let mut best = f64::INFINITY;
    let mut pair = (0.0, 0.0);
    for i in 0..numbers.len() {
        for j in 0..numbers.len() {
            if i == j {
                continue;
            }
            let d = (numbers[i] - numbers[j]).abs();
            if d < best {
                best = d;
                pair = (numbers[i].min(numbers[j]), numbers[i].max(numbers[j]));
            }
        }
    }
    pair
}
