import users

forget_usr = None
fetch = users.get_usr
name = 'get_usr'
my_get_usr = lambda x: users.get_usr(x)
