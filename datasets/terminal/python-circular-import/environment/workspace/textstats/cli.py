import sys

from textstats.counter import count_words


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    counts = count_words(sys.stdin.read())
    for word, k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]:
        print(f"{k} {word}")


if __name__ == "__main__":
    main()
