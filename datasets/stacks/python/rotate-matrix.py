def rotate(matrix: list[list[int]]) -> list[list[int]]:
    if len(matrix) == 0:
        return []
    return [[row[c] for row in reversed(matrix)] for c in range(0, len(matrix[0]))]
