def caesar(text: str, shift: int) -> str:
    out = ""
    for c in text:
        if "a" <= c <= "z":
            out += chr((ord(c) - ord("a") + shift) % 26 + ord("a"))
        elif "A" <= c <= "Z":
            out += chr((ord(c) - ord("A") + shift) % 26 + ord("A"))
        else:
            out += c
    return out
