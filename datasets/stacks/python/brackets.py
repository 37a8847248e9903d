def is_balanced(s: str) -> bool:
    pairs = {")": "(", "]": "[", "}": "{"}
    stack = []
    for c in s:
        if c in "([{":
            stack.append(c)
        elif c in pairs:
            if len(stack) == 0 or stack[-1] != pairs[c]:
                return False
            stack = stack[0 : len(stack) - 1]
    return len(stack) == 0
