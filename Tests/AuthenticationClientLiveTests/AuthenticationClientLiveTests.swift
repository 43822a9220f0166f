// Tests of AuthenticationClientLive.
