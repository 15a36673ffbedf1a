inner = "deep"
