# A Python dict: the query must equal a key,
# and exactly one value comes back.
table = {"red": 10.0, "green": 20.0, "blue": 30.0}

print('table["green"] ->', table["green"])
# A near miss finds nothing.
print('"teal" in table ->', "teal" in table)
