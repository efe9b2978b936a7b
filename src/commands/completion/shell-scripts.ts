// The scripts `outreach completion SHELL` prints. Each asks `outreach __complete` (src/cli/complete.ts).
export const shells = ['bash', 'zsh', 'fish'] as const;

/** The script a shell sources; it asks `outreach __complete` and falls back to file names when nothing matches. */
export function completionScript(shell: (typeof shells)[number]): string {
  switch (shell) {
    case 'bash':
      return `# outreach completion for bash. Load it with:  source <(outreach completion bash)
_outreach_complete() {
  local IFS=$'\\n'
  local candidates
  candidates=($(outreach __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [ \${#candidates[@]} -eq 0 ]; then
    compopt -o default 2>/dev/null
    COMPREPLY=()
  else
    COMPREPLY=("\${candidates[@]}")
  fi
}
complete -F _outreach_complete outreach
`;
    case 'zsh':
      return `#compdef outreach
# outreach completion for zsh. Load it with:  source <(outreach completion zsh)
_outreach() {
  local -a candidates
  candidates=("\${(@f)$(outreach __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if (( \${#candidates[@]} )) && [[ -n "\${candidates[1]}" ]]; then
    compadd -- "\${candidates[@]}"
  else
    _files
  fi
}
compdef _outreach outreach
`;
    case 'fish':
      return `# outreach completion for fish. Load it with:  outreach completion fish | source
function __outreach_complete
    set -l words (commandline -opc) (commandline -ct)
    outreach __complete $words[2..-1] 2>/dev/null
end
complete -c outreach -f -a '(__outreach_complete)'
`;
  }
}
