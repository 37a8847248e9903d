from collections import Counter

from textstats.utils import normalise

STOPWORDS = {"the", "a", "an", "and", "of", "to", "in"}


def count_words(text):
    c = Counter()
    for tok in text.split():
        w = normalise(tok)
        if w:
            c[w] += 1
    return c
