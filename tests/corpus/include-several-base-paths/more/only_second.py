second = True
