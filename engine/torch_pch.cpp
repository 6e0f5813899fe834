// The translation unit that compiles torch_pch.h once for every engine module (REUSE_FROM).
