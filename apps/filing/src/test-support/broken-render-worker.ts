// A render thread for the pool's tests that can never start (as a thread whose modules do not load).
throw new Error("this render thread cannot start");
