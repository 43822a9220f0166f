print("the game arrives in a later version")
