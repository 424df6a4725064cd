// Placeholder: the transport benchmark's trivial-handler server lands with the HTTP2 module.
print("HTTP2BenchServer: not built yet")
