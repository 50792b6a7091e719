package dev.mero.core.command.guard;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.mero.core.command.guard.GuardCalls.check;
import static org.assertj.core.api.Assertions.assertThat;

class NpmGuardTest {

    @ParameterizedTest
    @ValueSource(strings = {"npm install", "npm i left-pad", "npm ci", "npm install-test", "npm it", "npm cit",
            "npm run build", "npm run-script build", "npm rum build", "npm exec x", "npm x cowsay", "npm start",
            "npm test", "npm t", "npm tst", "npm restart", "npm stop", "npm explore x", "npm rebuild", "npm rb",
            "npm pack", "npm publish", "npm version patch", "npm link", "npm update", "npm up", "npm uninstall x",
            "npm dedupe", "npm prune", "npm audit fix", "npm init x", "npm create x", "npm edit x", "npm help install",
            "npm docs x", "npm config set x y", "npm config edit", "npm pkg set scripts.x=id", "npm doctor",
            "npm --prefix ls run x", "npm --loglevel silly run x", "npm ls --script-shell=/bin/sh",
            "npm view x --node-options=--require=/x", "npm ls --node-opt=x", "npm ls -c id", "npm ls --call=id",
            "npm ls --shell=sh", "npm view x --editor=vi", "npm view x --browser=x", "npm ls --userconfig=x",
            "npm ls --globalconfig=x", "npm ls --git=id", "npm --script-shell=id ls", "npm --userc=x ls"})
    void subcommands_that_run_scripts_and_program_options_are_refused(String line) {
        assertThat(check(ArgumentGuards.npm(), line)).as(line).isPresent();
    }

    @ParameterizedTest
    @ValueSource(strings = {"npm ls", "npm ls --all", "npm list --depth=0", "npm view react version",
            "npm outdated", "npm search left-pad", "npm explain x", "npm why x", "npm audit", "npm audit --json",
            "npm config get registry", "npm config list", "npm pkg get name", "npm -g ls", "npm --global ls",
            "npm --json ls", "npm --registry=https://registry.example ls", "npm -v", "npm --version", "npm",
            "npm root", "npm prefix", "npm fund", "npm query .dep", "npm config --global get registry"})
    void read_only_subcommands_pass(String line) {
        assertThat(check(ArgumentGuards.npm(), line)).as(line).isEmpty();
    }

    @Test
    void npx_is_always_refused() {
        assertThat(check(ArgumentGuards.npx(), "npx cowsay hi")).contains("npx downloads and runs packages, whose code "
                + "the policy cannot check; it is not available");
        assertThat(check(ArgumentGuards.npx(), "npx --version")).isPresent();
        assertThat(ArgumentGuards.npx().check("npx-cli.js", java.util.List.of())).isPresent();
    }

    @Test
    void messages() {
        assertThat(check(ArgumentGuards.npm(), "npm install")).contains("'npm install' can run package scripts or "
                + "change files; only read-only subcommands are available (npm ls, view, outdated, search, explain, "
                + "audit, config get)");
        assertThat(check(ArgumentGuards.npm(), "npm --prefix x ls")).contains("the option '--prefix' comes before the "
                + "subcommand; write it after the subcommand, or as --name=value");
    }
}
