def two_sum(nums: list[int], target: int) -> tuple[int, int] | None:
    for j in range(1, len(nums)):
        for i in range(0, j):
            if nums[i] + nums[j] == target:
                return (i, j)
    return None
