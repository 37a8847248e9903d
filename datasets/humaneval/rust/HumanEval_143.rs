fn words_in_sentence(sentence: String) -> String {
    let is_prime = |n: usize| n >= 2 && (2..n).take_while(|d| d * d <= n).all(|d| n % d != 0);
    sentence.split(' ').filter(|w| is_prime(w.len())).collect::<Vec<_>>().join(" ")
}
