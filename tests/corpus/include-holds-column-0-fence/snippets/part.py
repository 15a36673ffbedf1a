x = 1
```
print("prose now")
