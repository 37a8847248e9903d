def count_islands(grid: list[str]) -> int:
    seen = set()
    count = 0
    for r in range(0, len(grid)):
        for c in range(0, len(grid[r])):
            if grid[r][c] == "1" and (r, c) not in seen:
                count += 1
                seen.add((r, c))
                todo = [(r, c)]
                while todo:
                    y, x = todo[-1]
                    todo = todo[0 : len(todo) - 1]
                    for dy, dx in [(1, 0), (-1, 0), (0, 1), (0, -1)]:
                        ny, nx = y + dy, x + dx
                        inside = 0 <= ny < len(grid) and 0 <= nx < len(grid[ny])
                        if inside and grid[ny][nx] == "1" and (ny, nx) not in seen:
                            seen.add((ny, nx))
                            todo.append((ny, nx))
    return count
