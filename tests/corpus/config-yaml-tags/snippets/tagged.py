print('resolved through !relative')
