package io.nonstopstorm.scheduling.cli;

import io.nonstopstorm.scheduling.model.Outcome;
import io.nonstopstorm.scheduling.offline.PlanEvaluation;
import io.nonstopstorm.scheduling.offline.Planner;
import io.nonstopstorm.scheduling.offline.Planners;
import io.nonstopstorm.scheduling.offline.PlanningInput;
import io.nonstopstorm.scheduling.offline.PlanningResult;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.help.HelpFormatter;
import org.apache.commons.cli.help.TextHelpAppendable;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Offline planning: reads a cluster / topologies / metrics document (see {@code PLAN-INPUT.md}), runs one
 * named scheduler on it and prints the placement with its metrics, as JSON or as a table.
 *
 * <pre>
 * java -cp nonstop-scheduling.jar:STORM/lib/* io.nonstopstorm.scheduling.cli.PlanCli \
 *      --scheduler aniello-online --input cluster.json [--json]
 * </pre>
 *
 * Exit codes: 0 planned; 1 the scheduler found no placement (the reason is printed); 2 bad arguments or
 * input (one line on stderr starting {@code error:}); 3 an internal error (with a stack trace).
 */
public final class PlanCli {

    public static final int OK = 0;
    public static final int NO_PLACEMENT = 1;
    public static final int BAD_INPUT = 2;
    public static final int INTERNAL_ERROR = 3;

    /** Keeps Storm's INFO logging (its log4j2.xml writes to stdout) out of the plan on stdout. */
    static final String LOG_CONFIG = "classpath:io/nonstopstorm/scheduling/cli/plan-log4j2.properties";

    private PlanCli() {
    }

    public static void main(String[] args) {
        useQuietLogging();
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Must run before any Storm class logs. */
    public static void useQuietLogging() {
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", LOG_CONFIG);
        }
    }

    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        Options options = options();
        CommandLine cmd;
        try {
            cmd = new DefaultParser().parse(options, args);
        } catch (ParseException e) {
            err.println("error: " + e.getMessage() + " (try --help)");
            return BAD_INPUT;
        }
        if (cmd.hasOption("help")) {
            usage(options, out);
            return OK;
        }
        if (cmd.hasOption("list")) {
            for (Planner p : Planners.all()) {
                out.printf("%-24s %s%n", p.name(), p.summary());
            }
            return OK;
        }
        if (!cmd.hasOption("scheduler") || !cmd.hasOption("input")) {
            err.println("error: --scheduler and --input are required (try --help)");
            return BAD_INPUT;
        }
        String name = cmd.getOptionValue("scheduler");
        if (Planners.named(name).isEmpty()) {
            err.println("error: " + unknownScheduler(name));
            return BAD_INPUT;
        }
        String inputName = cmd.getOptionValue("input");
        String document;
        try {
            document = inputName.equals("-") ? new String(stdin.readAllBytes(), StandardCharsets.UTF_8)
                    : Files.readString(Path.of(inputName), StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            err.println("error: input file " + inputName + " does not exist");
            return BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot read input " + inputName + ": " + e);
            return BAD_INPUT;
        }
        Result result = plan(name, document, inputName, cmd.hasOption("json"));
        out.print(result.out());
        if (result.error() != null) {
            err.println(result.code() == BAD_INPUT ? "error: " + result.error() : result.error());
        }
        if (result.cause() != null) {
            result.cause().printStackTrace(err);
        }
        return result.code();
    }

    /**
     * One planning run's outcome: the exit code, what goes to stdout (the plan or, with no placement, the
     * reason), and for bad input or an internal error the one-line error (and the internal error's cause).
     */
    record Result(int code, String out, String error, Throwable cause) {
    }

    static String unknownScheduler(String name) {
        return "unknown scheduler '" + name + "' (known: " + String.join(", ", Planners.names()) + ")";
    }

    /** Plans {@code document} with scheduler {@code name}; {@code source} names the document in errors. */
    static Result plan(String name, String document, String source, boolean json) {
        Planner planner = Planners.named(name).orElse(null);
        if (planner == null) {
            return new Result(BAD_INPUT, "", unknownScheduler(name), null);
        }
        Outcome<PlanningInput> input = PlanInputReader.read(document);
        if (input instanceof Outcome.Failure<PlanningInput> f) {
            return new Result(BAD_INPUT, "", source + ": " + f.reason(), null);
        }
        try {
            long start = System.nanoTime();
            Outcome<PlanningResult> result = planner.plan(input.orElseThrow());
            double millis = (System.nanoTime() - start) / 1e6;
            if (result instanceof Outcome.Failure<PlanningResult> f) {
                return new Result(NO_PLACEMENT, json ? PlanReport.failureJson(name, f.reason()) + "\n"
                        : name + ": no placement: " + f.reason() + "\n", null, null);
            }
            PlanEvaluation.Evaluation ev = PlanEvaluation.evaluate(input.orElseThrow(), result.orElseThrow());
            return new Result(OK, json ? PlanReport.json(name, input.orElseThrow(), result.orElseThrow(), ev, millis) + "\n"
                    : PlanReport.table(name, input.orElseThrow(), result.orElseThrow(), ev, millis), null, null);
        } catch (RuntimeException e) {
            return new Result(INTERNAL_ERROR, "", "internal error in scheduler " + name + ": " + e, e);
        }
    }

    private static Options options() {
        Options o = new Options();
        o.addOption(Option.builder("s").longOpt("scheduler").hasArg().argName("NAME")
                .desc("scheduler to run (see --list)").get());
        o.addOption(Option.builder("i").longOpt("input").hasArg().argName("FILE")
                .desc("planning input JSON (PLAN-INPUT.md); - reads stdin").get());
        o.addOption(Option.builder().longOpt("json").desc("print the plan as JSON instead of a table").get());
        o.addOption(Option.builder().longOpt("list").desc("list the schedulers and exit").get());
        o.addOption(Option.builder("h").longOpt("help").desc("show this help").get());
        return o;
    }

    private static void usage(Options options, PrintStream out) {
        HelpFormatter help = HelpFormatter.builder().setShowSince(false)
                .setHelpAppendable(new TextHelpAppendable(out)).get();
        try {
            help.printHelp("PlanCli --scheduler NAME --input FILE [--json]",
                    "Runs one scheduler offline on a planning input and prints the placement with its metrics.",
                    options, "Schedulers: " + String.join(", ", Planners.names()), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
