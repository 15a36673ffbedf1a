single = True
