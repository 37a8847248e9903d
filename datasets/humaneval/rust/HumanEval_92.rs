fn any_int(x: f64, y: f64, z: f64) -> bool {
    if [x, y, z].iter().any(|v| v.fract() != 0.0) {
        return false;
    }
    x + y == z || x + z == y || y + z == x
}
