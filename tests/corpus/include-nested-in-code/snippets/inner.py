inner = "i"
