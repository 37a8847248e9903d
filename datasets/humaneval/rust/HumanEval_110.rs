fn exchange(lst1: Vec<i64>, lst2: Vec<i64>) -> String {
    let odd = lst1.iter().filter(|&&x| x % 2 != 0).count();
    let even = lst2.iter().filter(|&&x| x % 2 == 0).count();
    String::from(if even >= odd { "YES" } else { "NO" })
}
