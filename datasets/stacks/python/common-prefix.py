def longest_common_prefix(words: list[str]) -> str:
    if len(words) == 0:
        return ""
    prefix = words[0]
    for w in words:
        n = 0
        while n < len(prefix) and n < len(w) and prefix[n] == w[n]:
            n += 1
        prefix = prefix[0:n]
    return prefix
