def max_subarray_sum(nums: list[int]) -> int:
    best = nums[0]
    run = 0
    for x in nums:
        run = max(run + x, x)
        best = max(best, run)
    return best
