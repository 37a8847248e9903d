from users import get_usr, get_usr_id


def handler(uid):
    u = get_usr(uid)  # get_usr returns a dict
    return get_usr_id(u)
