def primes_up_to(n: int) -> list[int]:
    out = []
    for p in range(2, n + 1):
        prime = True
        for q in out:
            if q * q <= p and p % q == 0:
                prime = False
        if prime:
            out.append(p)
    return out
