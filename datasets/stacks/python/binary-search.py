def binary_search(sorted: list[int], target: int) -> int:
    lo = 0
    hi = len(sorted)
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted[mid] < target:
            lo = mid + 1
        else:
            hi = mid
    return lo if lo < len(sorted) and sorted[lo] == target else -1
