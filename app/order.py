"""Word order: attention alone does not see it (seed 002).

Swap two words of a sentence: with the causal mask and the distance bias off, every
weight simply moves with its words (row a becomes row b, column a column b); with the
mask on, or the bias, the weights change, because both know the positions.
"""


def swapped(texts, a, b):
    """The words with a and b exchanged."""
    texts = list(texts)
    texts[a], texts[b] = texts[b], texts[a]
    return texts


def permutation(n, a, b):
    """perm[i] = the index word i of the new sentence had in the old one."""
    return swapped(range(n), a, b)


def moved_with_words(before, after, a, b, tol=1e-12):
    """Whether every weight of `after` is the weight of `before` at the swapped place."""
    perm = permutation(before.n_q, a, b)
    return all(abs(after.weights[i][j] - before.weights[perm[i]][perm[j]]) <= tol
               for i in range(after.n_q) for j in range(after.n_k))


def verdict(before, after, a, b):
    """The string key saying what the swap did: moved, or why not (mask, distance bias)."""
    if moved_with_words(before, after, a, b):
        return "order_moved"
    return "order_mask" if after.mask else "order_bias"
