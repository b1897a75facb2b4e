def total(prices: list[float]) -> float:
    return sum(prices)
