@echo off
rem evidence-desk: the installed Evidence Desk as the command line ("Evidence Desk.exe" --cli): no
rem window, the same data folder and keychain as the app. A window program cannot write to the
rem console it was started from, so its output reaches this console through a pipe, and its exit
rem code through a file it writes (EVIDENCE_DESK_EXIT_FILE). With --json, stdout stays pure JSON:
rem what the command says on stderr (progress, problems) is shown after it ends.
setlocal
set "EVIDENCE_DESK_EXIT_FILE=%TEMP%\evidence-desk-%RANDOM%-%RANDOM%.code"
set "EVIDENCE_DESK_CODE=1"
set "EVIDENCE_DESK_JSON="
for %%a in (%*) do if /i "%%~a"=="--json" set "EVIDENCE_DESK_JSON=1"
if defined EVIDENCE_DESK_JSON (
  "%~dp0..\..\Evidence Desk.exe" --cli %* 2>"%EVIDENCE_DESK_EXIT_FILE%.err" | findstr "^"
  type "%EVIDENCE_DESK_EXIT_FILE%.err" 1>&2
  del "%EVIDENCE_DESK_EXIT_FILE%.err" 2>nul
) else (
  "%~dp0..\..\Evidence Desk.exe" --cli %* 2>&1 | findstr "^"
)
if exist "%EVIDENCE_DESK_EXIT_FILE%" set /p EVIDENCE_DESK_CODE=<"%EVIDENCE_DESK_EXIT_FILE%"
del "%EVIDENCE_DESK_EXIT_FILE%" 2>nul
exit /b %EVIDENCE_DESK_CODE%
