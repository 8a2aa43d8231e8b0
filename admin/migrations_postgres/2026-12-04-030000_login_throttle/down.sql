DROP TABLE login_throttle;
