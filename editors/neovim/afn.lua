-- AFN in Neovim: the filetype, and `allfours lsp` attached to every AFN buffer.
-- Put this file in ~/.config/nvim/plugin/ (or `luafile` it from your init).
-- Works with Neovim 0.7 and later (0.8+ uses vim.lsp.start).
vim.cmd("autocmd BufRead,BufNewFile *.afn setfiletype afn")

local config = { name = "allfours", cmd = { "allfours", "lsp" } }
local client_id = nil

vim.api.nvim_create_autocmd("FileType", {
  pattern = "afn",
  callback = function(args)
    vim.bo[args.buf].commentstring = "; %s"
    -- Completion with <C-x><C-o> (insert mode): Neovim 0.7 has no other way to ask
    -- the server; 0.8+ sets this too when the client attaches.  Semantic tokens
    -- (the server's highlighting) are drawn by Neovim 0.9+ by itself.
    vim.bo[args.buf].omnifunc = "v:lua.vim.lsp.omnifunc"
    -- "S:7C" is one word: the completion replaces a typed "S:" instead of adding to it.
    vim.bo[args.buf].iskeyword = "@,48-57,_,192-255,58"
    if vim.lsp.start then
      vim.lsp.start(vim.tbl_extend("force", config, { root_dir = vim.fn.getcwd() }))
      return
    end
    if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client(vim.tbl_extend("force", config, { root_dir = vim.fn.getcwd() }))
    end
    vim.lsp.buf_attach_client(args.buf, client_id)
  end,
})

-- Findings as text at the end of the line as well as in the sign column.
vim.diagnostic.config({ virtual_text = true, signs = true, underline = true })
