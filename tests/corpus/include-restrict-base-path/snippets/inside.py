inside = True
