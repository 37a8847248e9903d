def get_usr(uid):
    return {'id': uid}


def get_usr_id(u):
    return u['id']
