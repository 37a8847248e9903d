fn numerical_letter_grade(grades: Vec<f64>) -> Vec<String> {
    let table = [
        (3.7, "A"), (3.3, "A-"), (3.0, "B+"), (2.7, "B"), (2.3, "B-"), (2.0, "C+"),
        (1.7, "C"), (1.3, "C-"), (1.0, "D+"), (0.7, "D"), (0.0, "D-"),
    ];
    grades
        .iter()
        .map(|&g| {
            if g == 4.0 {
                return String::from("A+");
            }
            for (limit, letter) in table.iter() {
                if g > *limit {
                    return letter.to_string();
                }
            }
            String::from("E")
        })
        .collect()
}
