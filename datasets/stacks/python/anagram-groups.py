def group_anagrams(words: list[str]) -> list[list[str]]:
    groups = {}
    order = []
    for w in words:
        key = "".join(sorted(w))
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(w)
    return [groups[key] for key in order]
