from textstats.counter import STOPWORDS


def normalize(word):
    """Lower-case a token and strip punctuation around it; stop words become ""."""
    w = word.strip(".,;:!?\"'()[]").lower()
    return "" if w in STOPWORDS else w
