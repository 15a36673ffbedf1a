raise SystemExit('should not be included')
