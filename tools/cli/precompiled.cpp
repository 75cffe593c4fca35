// The object the commands' precompiled headers are made for (tools/CMakeLists.txt): nothing of
// its own.
