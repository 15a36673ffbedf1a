where = "second"
