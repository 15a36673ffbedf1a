class Example:
    def method(self):
        # --8<-- [start:body]
        total = 1 + 2
        # --8<-- [end:body]
        return total
