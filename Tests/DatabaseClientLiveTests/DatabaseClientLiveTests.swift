// Tests of DatabaseClientLive.
