fn sort_numbers(numbers: String) -> String {
    let names = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    let mut words: Vec<&str> = numbers.split_whitespace().collect();
    words.sort_by_key(|w| names.iter().position(|n| n == w).unwrap_or(0));
    words.join(" ")
}
