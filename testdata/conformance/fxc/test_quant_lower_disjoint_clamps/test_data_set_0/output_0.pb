BoutJ



