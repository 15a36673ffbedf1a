outside = True
