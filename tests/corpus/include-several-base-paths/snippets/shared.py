where = "first"
