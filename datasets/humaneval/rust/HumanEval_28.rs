fn concatenate(strings: Vec<String>) -> String {
    strings.concat()
}
