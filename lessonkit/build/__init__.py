"""The build: the Markdown extension and MkDocs hooks, running a page's blocks, assets, links,
diagrams, TypeScript, the contract with the page script and the build's one error type.
"""
