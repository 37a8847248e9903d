def is_palindrome(s: str) -> bool:
    kept = ""
    for c in s:
        if "a" <= c <= "z" or "0" <= c <= "9":
            kept += c
        elif "A" <= c <= "Z":
            kept += c.lower()
    return kept == kept[::-1]
